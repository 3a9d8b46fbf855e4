import { createContext } from 'react';

export interface PageMeta {
  /** The full tab title, as documentTitle() formats it. */
  title: string;
  description: string;
}

/**
 * Where a page's title and description go when it is rendered to HTML at build time (no document
 * there, and effects do not run): the prerenderer provides a collector, usePageMeta reports to it
 * during render. In the browser nothing provides it and usePageMeta writes to the document instead.
 */
export const PageMetaCollector = createContext<((meta: PageMeta) => void) | null>(null);
