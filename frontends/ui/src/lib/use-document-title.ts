import { useEffect } from 'react';

export const APP_NAME = 'Omni';

/** Sets the tab title to "<page> · Omni" while the calling page is shown. */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title
      ? `${title} · ${APP_NAME}`
      : `${APP_NAME} — music distribution for independent artists`;
  }, [title]);
}
