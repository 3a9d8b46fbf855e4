import { useEffect } from 'react';

export const APP_NAME = 'Omni';

/** The tab title for a page: "<page> · Omni", or the site's own title when the page has none. */
export function documentTitle(title: string | undefined): string {
  return title ? `${title} · ${APP_NAME}` : `${APP_NAME} — music distribution for independent artists`;
}

/** Sets the tab title to "<page> · Omni" while the calling page is shown. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}
