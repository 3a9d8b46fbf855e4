// A figure with its title and icon, as the dashboard's stats and the Finder's scan totals show them.
import type { ReactNode } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from './card';

export function StatTile({
  title,
  value,
  icon,
  testId,
}: {
  title: string;
  value: string;
  icon: ReactNode;
  /** What tests find the tile by (data-testid). */
  testId?: string;
}) {
  return (
    <Card data-testid={testId}>
      <CardHeader className="flex flex-row items-center justify-between space-y-0 pb-2">
        <CardTitle className="text-sm font-medium">{title}</CardTitle>
        <span className="text-muted-foreground">{icon}</span>
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-bold">{value}</p>
      </CardContent>
    </Card>
  );
}
