import { ComingSoonPage } from '@omni/ui';
import { SiteLayout } from './site-layout';

/** A public page whose content is not built yet, inside the site's header and footer. */
export function MarketingPlaceholder({ title, description }: { title: string; description: string }) {
  return (
    <SiteLayout>
      <ComingSoonPage title={title} description={description} />
    </SiteLayout>
  );
}
