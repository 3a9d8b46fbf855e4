import { OmniLogo } from '@omni/ui';

/** The public-site logo on the sign-in pages and the contributor page: the kit's one Omni logo, to /. */
export function SiteLogo() {
  return <OmniLogo />;
}
