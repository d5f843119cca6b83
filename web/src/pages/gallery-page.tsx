import { PageHeader } from '../components/page-header';

export default function GalleryPage() {
  return <PageHeader title="AI Gallery" description="Browse public creations and manage your own images." />;
}
