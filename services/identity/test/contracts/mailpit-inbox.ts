// What a real mail server received, read back from Mailpit's REST API (MAILPIT_URL), for the contract
// suites: the SMTP adapter and the identity journeys check the mail a person would get, not a mock.
import { linksIn } from '../../src/providers/mail/port';

export interface ReceivedMail {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Raw headers as Mailpit parsed them (names as sent, values undecoded). */
  headers: Record<string, string[]>;
  links: string[];
}

interface Address {
  Name: string;
  Address: string;
}

interface Summary {
  ID: string;
}

interface Message {
  ID: string;
  From: Address;
  To: Address[];
  Subject: string;
  Text: string;
  HTML: string;
}

export function mailpitInbox(baseUrl: string) {
  const api = baseUrl.replace(/\/$/, '');
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${api}${path}`, { signal: AbortSignal.timeout(5000) });
    if (!res.ok) throw new Error(`Mailpit ${path} answered ${res.status}`);
    return (await res.json()) as T;
  };
  const read = async (id: string): Promise<ReceivedMail> => {
    const m = await get<Message>(`/api/v1/message/${id}`);
    const headers = await get<Record<string, string[]>>(`/api/v1/message/${id}/headers`);
    return {
      id: m.ID,
      from: m.From.Name ? `${m.From.Name} <${m.From.Address}>` : m.From.Address,
      to: m.To.map((a) => a.Address.toLowerCase()),
      subject: m.Subject,
      // Mailpit keeps the CRLF of the wire; people and the links do not care.
      text: m.Text.replace(/\r\n/g, '\n'),
      html: m.HTML,
      headers,
      links: linksIn(m.Text),
    };
  };

  return {
    /** Every message to this address, newest first. */
    async to(address: string): Promise<ReceivedMail[]> {
      const query = new URLSearchParams({ query: `to:"${address.toLowerCase()}"` });
      const found = await get<{ messages: Summary[] }>(`/api/v1/search?${query}`);
      return Promise.all(found.messages.map((s) => read(s.ID)));
    },

    /** Waits for the `count`-th message to this address (SMTP hands it over before Mailpit indexes it). */
    async waitFor(address: string, count = 1, timeoutMs = 10_000): Promise<ReceivedMail[]> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mails = await this.to(address);
        if (mails.length >= count) return mails;
        if (Date.now() > deadline)
          throw new Error(
            `Mailpit received ${mails.length} of ${count} mails to ${address} in ${timeoutMs} ms`,
          );
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}

export type MailpitInbox = ReturnType<typeof mailpitInbox>;
