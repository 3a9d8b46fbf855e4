import { PublicAssetsPage } from '../components/public-assets-page';

export default function MusicPage() {
  return <PublicAssetsPage slug="music" />;
}
