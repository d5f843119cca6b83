import { PageHeader } from '../components/page-header';

export default function SubscribePage() {
  return <PageHeader title="Choose Your Plan" description="Pick the plan that fits how much you create." />;
}
