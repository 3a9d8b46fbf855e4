import { useQuery } from '@tanstack/react-query';
import { fetchPages } from '../lib/cms-api';

/** The CMS pages (music, videos…) an upload or a link can target. */
export const usePages = () =>
  useQuery({ queryKey: ['cms', 'pages'], queryFn: fetchPages, staleTime: 300_000 });
