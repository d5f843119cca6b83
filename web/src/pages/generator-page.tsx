import { PageHeader } from '../components/page-header';

export default function GeneratorPage() {
  return <PageHeader title="Image Generator" description="Describe an image and let the AI create it." />;
}
