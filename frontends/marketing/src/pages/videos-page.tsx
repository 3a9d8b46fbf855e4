import { PublicAssetsPage } from '../components/public-assets-page';

export default function VideosPage() {
  return <PublicAssetsPage slug="videos" />;
}
