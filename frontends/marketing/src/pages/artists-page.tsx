import { MarketingPlaceholder } from '../components/placeholder';

export default function ArtistsPage() {
  return (
    <MarketingPlaceholder
      title="For Artists"
      description="Upload your music, let us check the metadata, and track every cent you earn."
    />
  );
}
