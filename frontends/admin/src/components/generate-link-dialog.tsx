import { zodResolver } from '@hookform/resolvers/zod';
import { createLinkBody, LINK_DEFAULTS, LINK_LIMITS } from '@omni/proto/api';
import {
  Button,
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
  FormField,
  Label,
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
  toast,
} from '@omni/ui';
import { useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type * as z from 'zod/mini';
import { usePages } from '../hooks/use-pages';
import { createLink } from '../lib/cms-api';
import { rememberLinkUrl } from '../lib/link-urls';

type LinkForm = z.input<typeof createLinkBody>;
type LinkRequest = z.output<typeof createLinkBody>;
const TOAST_ID = 'generate-link';

/**
 * 'Generate Upload Link': page (required), Max Uses and Expires In (hours), each a whole number of at
 * least 1 (spec §5, §9 defaults). The URL, shown once by the server, goes to the clipboard at once.
 */
export function GenerateLinkDialog() {
  const [open, setOpen] = useState(false);
  const pages = usePages();
  const queryClient = useQueryClient();
  const form = useForm<LinkForm, unknown, LinkRequest>({
    resolver: zodResolver(createLinkBody),
    defaultValues: { pageSlug: '', ...LINK_DEFAULTS },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      const { uploadUrl, link } = await createLink(values);
      rememberLinkUrl(link.id, uploadUrl);
      await queryClient.invalidateQueries({ queryKey: ['cms', 'links'] });
      setOpen(false);
      form.reset();
      try {
        await navigator.clipboard.writeText(uploadUrl);
        toast.success('Link created and copied to clipboard!', { id: TOAST_ID });
      } catch {
        // No clipboard permission: the link exists; its row's copy button has the URL.
        toast.success('Link created', { id: TOAST_ID, description: uploadUrl });
      }
    } catch (error) {
      toast.error(error instanceof Error && error.message ? error.message : 'Failed to create link', {
        id: TOAST_ID,
      });
    }
  });

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden="true" />
          Generate Upload Link
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-[calc(100vw-2rem)] rounded-lg sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Generate Upload Link</DialogTitle>
          <DialogDescription>
            Anyone with the link can submit files for review on the chosen page.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="link-page">Page *</Label>
            <Controller
              control={form.control}
              name="pageSlug"
              render={({ field }) => (
                <Select value={field.value} onValueChange={field.onChange}>
                  <SelectTrigger
                    id="link-page"
                    aria-required="true"
                    aria-invalid={errors.pageSlug ? true : undefined}
                    aria-describedby={errors.pageSlug ? 'link-page-error' : undefined}
                  >
                    <SelectValue placeholder="Select a page" />
                  </SelectTrigger>
                  <SelectContent>
                    {(pages.data ?? []).map((page) => (
                      <SelectItem key={page.id} value={page.slug}>
                        {page.title}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            {errors.pageSlug ? (
              <p id="link-page-error" className="text-sm font-medium text-destructive">
                {errors.pageSlug.message}
              </p>
            ) : null}
          </div>
          <FormField
            label="Max Uses"
            type="number"
            inputMode="numeric"
            min={1}
            max={LINK_LIMITS.maxUses}
            step={1}
            error={errors.maxUses?.message}
            {...form.register('maxUses', { valueAsNumber: true })}
          />
          <FormField
            label="Expires In (hours)"
            type="number"
            inputMode="numeric"
            min={1}
            max={LINK_LIMITS.expiresInHours}
            step={1}
            error={errors.expiresInHours?.message}
            {...form.register('expiresInHours', { valueAsNumber: true })}
          />
          <DialogFooter>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Generating…' : 'Generate Link'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
