import { Button } from '@omni/ui';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { formatCount } from '../../lib/statement-formats';

/** The rows of page `page` (0-based) of `size`, and how many pages there are. */
export function pageOf<T>(rows: readonly T[], page: number, size: number) {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(page, pages - 1);
  return { rows: rows.slice(current * size, current * size + size), page: current, pages };
}

/** "Showing 21–40 of 57" with Previous and Next; nothing when everything fits one page. */
export function Pager({
  label,
  page,
  pages,
  size,
  total,
  onPage,
}: {
  /** What is paged, for the buttons' names ("imports"). */
  label: string;
  page: number;
  pages: number;
  size: number;
  total: number;
  onPage: (page: number) => void;
}) {
  if (pages <= 1) return null;
  const first = page * size + 1;
  const last = Math.min(total, first + size - 1);
  return (
    <nav aria-label={`Pages of ${label}`} className="flex flex-wrap items-center justify-between gap-2">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        Showing {formatCount(first)}–{formatCount(last)} of {formatCount(total)}
      </p>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() => onPage(page - 1)}
          disabled={page === 0}
          aria-label={`Previous page of ${label}`}
        >
          <ChevronLeft aria-hidden="true" />
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => onPage(page + 1)}
          disabled={page >= pages - 1}
          aria-label={`Next page of ${label}`}
        >
          Next
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
