import { toast } from '@omni/ui';

/** Copies to the clipboard and says so ('Copied!', the spec's toast). */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (no permission, insecure context): the old way still works in most browsers.
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  toast.success('Copied!');
}
