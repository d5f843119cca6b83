import { PageHeader } from '../components/page-header';

export default function ChatPage() {
  return <PageHeader title="AI Chat" description="Talk with your AI characters and assistants." />;
}
