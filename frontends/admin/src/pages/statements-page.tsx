import { Button, toast, useDocumentTitle } from '@omni/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Inbox } from 'lucide-react';
import { useMemo, useState } from 'react';
import { ImportDetail } from '../components/statements/import-detail';
import { ImportsTable } from '../components/statements/imports-table';
import { UnmatchedQueue } from '../components/statements/unmatched-queue';
import { UploadCard } from '../components/statements/upload-card';
import { LIST_KEY, useStatementList } from '../hooks/use-statements';
import { askStoreReports, storeReportsAvailable } from '../lib/statements-api';

/**
 * /admin/statements: 'Statements' — stores' sales reports imported (by upload, or from the stores' report
 * folder), each checked line by line and to the cent, and the queue of lines that match no Omni recording.
 */
export default function StatementsPage() {
  useDocumentTitle('Statements');
  const list = useStatementList();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const imports = list.data ?? [];
  const fileNames = useMemo(() => new Map(imports.map((i) => [i.id, i.fileName])), [imports]);

  return (
    <div className="mx-auto max-w-6xl space-y-6 p-4 md:p-8">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Statements</h1>
          <p className="text-sm text-muted-foreground">
            Import the stores' sales reports, check that every file adds up, and place the lines that match no
            Omni recording.
          </p>
        </div>
        <StoreReportsButton />
      </div>
      <UploadCard onOpen={setSelectedId} />
      {selectedId ? (
        <ImportDetail
          key={selectedId}
          id={selectedId}
          placeholder={imports.find((i) => i.id === selectedId)}
          onClose={() => setSelectedId(null)}
        />
      ) : null}
      <section aria-labelledby="imports-heading" className="space-y-3">
        <h2 id="imports-heading" className="text-lg font-semibold">
          Imports
        </h2>
        <ImportsTable
          imports={imports}
          loading={list.isPending}
          error={list.isError ? list.error.message : null}
          selectedId={selectedId}
          onOpen={setSelectedId}
        />
      </section>
      <UnmatchedQueue fileNames={fileNames} onOpenImport={setSelectedId} />
    </div>
  );
}

/**
 * Under `npm start` a store simulator plays the stores: asked, it drops this month's reports into the
 * report folder, where they are imported like uploads. Shown only where the simulator answers.
 */
function StoreReportsButton() {
  const queryClient = useQueryClient();
  const available = useQuery({
    queryKey: ['royalties', 'store-reports'],
    queryFn: storeReportsAvailable,
    staleTime: 300_000,
    retry: false,
  });
  const ask = useMutation({
    mutationFn: askStoreReports,
    onSuccess: async (files) => {
      toast.success(
        files === 0
          ? 'The simulated stores had no new reports'
          : `The simulated stores sent ${files} report${files === 1 ? '' : 's'}`,
        { id: 'store-reports', description: files === 0 ? undefined : 'They are imported as they arrive.' },
      );
      await queryClient.invalidateQueries({ queryKey: LIST_KEY });
    },
    onError: (error) => toast.error(error.message, { id: 'store-reports' }),
  });
  if (available.data !== true) return null;
  return (
    <Button
      variant="outline"
      className="h-auto min-h-10 whitespace-normal py-2 text-left"
      onClick={() => ask.mutate()}
      disabled={ask.isPending}
    >
      <Inbox aria-hidden="true" />
      {ask.isPending ? 'Asking the stores…' : "Ask the simulated stores for this month's reports"}
    </Button>
  );
}
