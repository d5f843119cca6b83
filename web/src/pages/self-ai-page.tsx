import { PageHeader } from '../components/page-header';

export default function SelfAiPage() {
  return <PageHeader title="Self AI" description="Upload your photos to create personalized AI content." />;
}
