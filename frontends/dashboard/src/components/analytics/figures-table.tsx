import {
  Button,
  buttonVariants,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@omni/ui';
import { Download } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { type CsvCell, toCsv } from '../../lib/csv';

/** One column of a figures table: what the table shows and what the CSV carries, from the same row. */
export interface Column<Row> {
  header: string;
  /** The CSV's value: numbers and amount strings as the API sent them, `{ text }` for names. */
  csv: (row: Row) => CsvCell;
  /** The table's cell (defaults to the CSV's value). */
  cell?: (row: Row) => ReactNode;
  numeric?: boolean;
  /** Kept on one line (months, days). */
  nowrap?: boolean;
  /** Left out of the table on a phone (the CSV keeps it), so the rest fits without scrolling sideways. */
  wideOnly?: boolean;
}

function cellClass(column: Column<unknown>, base: string): string {
  return [
    base,
    column.numeric ? 'text-right tabular-nums whitespace-nowrap' : '',
    column.nowrap ? 'whitespace-nowrap' : '',
    column.wideOnly ? 'hidden sm:table-cell' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Rows shown before "Show all" (the CSV always has every row). */
const FIRST_ROWS = 10;

/**
 * A download link for a CSV made in the browser. The object URL is made in an effect (and revoked when
 * the text changes or the table goes), so it is never a URL already revoked.
 */
function CsvLink({ csv, fileName, label }: { csv: string; fileName: string; label: string }) {
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [csv]);
  return (
    <a
      href={href ?? undefined}
      download={fileName}
      aria-label={`Download ${label} as CSV`}
      className={buttonVariants({ variant: 'outline', size: 'sm' })}
    >
      <Download aria-hidden="true" />
      CSV
    </a>
  );
}

/** The numbers of a chart as a table a screen reader can read, with a CSV of every row. */
export function FiguresTable<Row>({
  caption,
  columns,
  visible = columns,
  rows,
  rowKey,
  fileName,
}: {
  caption: string;
  /** Every column, as the CSV has them. */
  columns: readonly Column<Row>[];
  /** The columns the table shows (default: all). */
  visible?: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  fileName: string;
}) {
  const [showAll, setShowAll] = useState(false);
  const csv = useMemo(
    () =>
      toCsv(
        columns.map((c) => c.header),
        rows.map((row) => columns.map((c) => c.csv(row))),
      ),
    [columns, rows],
  );
  const shown = showAll ? rows : rows.slice(0, FIRST_ROWS);
  return (
    <div className="min-w-0 space-y-2">
      <div className="flex items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">{rows.length === 1 ? '1 row' : `${rows.length} rows`}</p>
        <CsvLink csv={csv} fileName={fileName} label={caption} />
      </div>
      <Table>
        <caption className="sr-only">{caption}</caption>
        <TableHeader>
          <TableRow>
            {visible.map((column) => (
              <TableHead key={column.header} className={cellClass(column as Column<unknown>, 'h-9 px-2')}>
                {column.header}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {shown.map((row) => (
            <TableRow key={rowKey(row)}>
              {visible.map((column) => (
                <TableCell key={column.header} className={cellClass(column as Column<unknown>, 'px-2 py-2')}>
                  {column.cell ? column.cell(row) : String(cellText(column.csv(row)))}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {rows.length > FIRST_ROWS ? (
        <Button variant="ghost" size="sm" onClick={() => setShowAll((v) => !v)}>
          {showAll ? `Show the first ${FIRST_ROWS}` : `Show all ${rows.length}`}
        </Button>
      ) : null}
    </div>
  );
}

const cellText = (cell: CsvCell) => (typeof cell === 'object' ? cell.text : cell);
