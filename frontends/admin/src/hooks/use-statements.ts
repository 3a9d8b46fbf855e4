import type { StatementImport } from '@omni/proto/api';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { isActive } from '../lib/statement-formats';
import { fetchStatement, fetchStatements, fetchUnmatched } from '../lib/statements-api';

export const STATEMENTS_KEY = ['royalties', 'statements'] as const;
export const LIST_KEY = [...STATEMENTS_KEY, 'list'] as const;
export const UNMATCHED_KEY = ['royalties', 'unmatched'] as const;
export const importKey = (id: string | null) => [...STATEMENTS_KEY, 'import', id] as const;

/** Every import, newest first; polled every 2 s while one of them is still moving (an inbox file). */
export const useStatementList = () =>
  useQuery({
    queryKey: LIST_KEY,
    queryFn: fetchStatements,
    refetchInterval: (query) => (query.state.data?.some((i) => isActive(i.state)) ? 2000 : false),
  });

/** The queue; read again every 2 s while a group's lines are being moved (a big group moves in batches). */
export const useUnmatched = () =>
  useQuery({
    queryKey: UNMATCHED_KEY,
    queryFn: fetchUnmatched,
    refetchInterval: (query) => (query.state.data?.groups.some((g) => g.resolving) ? 2000 : false),
  });

/**
 * One import, read again every second while it moves (receiving, queued, importing, publishing). When it
 * stops, the list and the unmatched queue are read again: its lines are in them now.
 */
export function useStatementImport(id: string | null, placeholder?: StatementImport) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: importKey(id),
    queryFn: () => fetchStatement(id as string),
    enabled: id !== null,
    placeholderData: placeholder,
    refetchInterval: (q) => (q.state.data && isActive(q.state.data.state) ? 1000 : false),
  });
  const state = query.isPlaceholderData ? undefined : query.data?.state;
  const wasMoving = useRef(false);
  useEffect(() => {
    if (!state) return;
    if (isActive(state)) {
      wasMoving.current = true;
    } else if (wasMoving.current) {
      wasMoving.current = false;
      void queryClient.invalidateQueries({ queryKey: LIST_KEY });
      void queryClient.invalidateQueries({ queryKey: UNMATCHED_KEY });
    }
  }, [state, queryClient]);
  return query;
}
