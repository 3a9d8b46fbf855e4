import { fetchAuthProviders } from '@omni/ui';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** Which sign-in methods this server offers (Google, the dev mailbox); asked once per page. */
export const authProvidersQuery = queryOptions({
  queryKey: ['auth', 'providers'],
  queryFn: fetchAuthProviders,
  staleTime: Number.POSITIVE_INFINITY,
});

export const useAuthProviders = () => useQuery(authProvidersQuery);
