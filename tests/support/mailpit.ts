// Mail on a cluster goes out over SMTP to Mailpit: the helpers that read mail (the journeys' people,
// verifiedSession) read links there instead of the embedded dev mailbox when the Omni they use is a
// cluster (tests/journeys/support/cluster-process.ts registers its Mailpit here).

/** The Mailpit API of the cluster whose gateway is at a URL. */
export const mailpitFor = new Map<string, string>();

/**
 * On a cluster, mail goes out over SMTP to Mailpit: the newest mail to `email` with a ?<param>= link, read
 * through Mailpit's API (a person would click it in their mail client).
 */
export async function mailpitLink(mailpit: string, email: string, param: string): Promise<string> {
  return (await mailpitMail(mailpit, email, param)).link;
}

/** The newest mail to `email` with a ?<param>= link: the link, and the mail's subject and plain text. */
export async function mailpitMail(
  mailpit: string,
  email: string,
  param: string,
): Promise<{ link: string; text: string }> {
  return poll(
    async () => {
      const search = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${email}"`)}`);
      const { messages = [] } = (await search.json()) as { messages?: { ID: string }[] };
      for (const { ID } of messages) {
        const message = (await (await fetch(`${mailpit}/api/v1/message/${ID}`)).json()) as {
          Subject?: string;
          Text?: string;
          HTML?: string;
        };
        const text = `${message.Text ?? ''} ${message.HTML ?? ''}`;
        const link = new RegExp(`https?://[^\\s"'<>]+[?&]${param}=[^\\s"'<>]+`).exec(text)?.[0];
        if (link)
          return {
            link: link.replace(/&amp;/g, '&'),
            text: `${message.Subject ?? ''}\n${message.Text ?? ''}`,
          };
      }
      return undefined;
    },
    `a mail to ${email} with a ?${param}= link in Mailpit`,
    60_000,
    500,
  );
}

async function poll<T>(
  read: () => Promise<T | undefined>,
  what: string,
  ms: number,
  everyMs: number,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
