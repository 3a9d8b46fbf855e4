import { useContext, useEffect } from 'react';
import { PageMetaCollector } from './page-meta-collector';
import { documentTitle, useDocumentTitle } from './use-document-title';

/**
 * Title and meta description of the page being shown. The description is put back when the page
 * goes away, so a page that sets none (e.g. the shell's not-found page) does not inherit the last one.
 */
export function usePageMeta({
  title,
  description,
}: {
  title: string | undefined;
  description: string;
}): void {
  useContext(PageMetaCollector)?.({ title: documentTitle(title), description });
  useDocumentTitle(title);
  useEffect(() => {
    let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    const created = !meta;
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    const previous = meta.content;
    meta.content = description;
    return () => {
      if (created) meta.remove();
      else meta.content = previous;
    };
  }, [description]);
}
