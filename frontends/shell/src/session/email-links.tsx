import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { EmailLink } from './consume-email-link';

/** Single-use tokens already taken from a URL, so React's double effects don't spend one twice. */
const taken = new Set<string>();

/**
 * Links from emails land on any route with `?verify=<token>` (email confirmation) or
 * `?magic=<token>` (magic-link sign-in); the Google callback lands with `?handoff=<code>`. The token leaves the address bar at once (a reload or a
 * shared URL must not replay it), then the lazily loaded handler signs the user in. `?reset=` is
 * not handled here: /forgot-password reads it itself.
 */
export function EmailLinks() {
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const verify = params.get('verify');
    const magic = params.get('magic');
    const handoff = params.get('handoff');
    if (!verify && !magic && !handoff) return;
    params.delete('verify');
    params.delete('magic');
    params.delete('handoff');
    const search = params.toString();
    // replace: history.replaceState through the router, so the router's location agrees.
    navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true, preventScrollReset: true },
    );
    const link: EmailLink = verify
      ? { kind: 'verify', token: verify }
      : magic
        ? { kind: 'magic', token: magic }
        : { kind: 'handoff', token: handoff ?? '' };
    if (taken.has(link.token)) return;
    taken.add(link.token);
    import('./consume-email-link')
      .then(({ consumeEmailLink }) => consumeEmailLink(link, navigate))
      .catch((error: unknown) => console.error('[omni] could not handle the email link', error));
  }, [location, navigate]);

  return null;
}
