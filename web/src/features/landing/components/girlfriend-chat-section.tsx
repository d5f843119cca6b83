import { useTranslation } from 'react-i18next';
import { CheckList, LandingSection } from './landing-section';
import { AppLink } from '../../../components/app-link';
import { ArrowRightIcon } from '../../../components/icons/landing-icons';
import '../../../styles/kit.css';
import './girlfriend-chat-section.css';

const POINTS = ['memory', 'personality', 'private'] as const;

const MESSAGES = [
  { key: 'messageOne', from: 'companion' },
  { key: 'messageTwo', from: 'visitor' },
  { key: 'messageThree', from: 'companion' },
] as const;

/** A sample conversation, shown as an illustration. */
function ChatPreview() {
  const { t } = useTranslation();
  const name = t('landing.girlfriendChat.sampleName');
  return (
    <figure className="lp-girlfriend-chat lp-shadow-lg" aria-label={t('landing.girlfriendChat.conversationLabel')}>
      <div className="lp-girlfriend-chat-header">
        <div className="lp-girlfriend-chat-avatar" aria-hidden="true">
          {name.charAt(0)}
        </div>
        <p className="lp-girlfriend-chat-name">{name}</p>
        <span className="lp-badge lp-badge-green lp-badge-sm">{t('landing.girlfriendChat.sampleStatus')}</span>
      </div>
      <ol className="lp-girlfriend-chat-messages">
        {MESSAGES.map((message) => (
          <li key={message.key} className={`lp-girlfriend-chat-row lp-girlfriend-chat-row-${message.from}`}>
            <p className={`lp-girlfriend-chat-bubble lp-girlfriend-chat-bubble-${message.from}`}>
              {t(`landing.girlfriendChat.${message.key}`)}
            </p>
          </li>
        ))}
      </ol>
    </figure>
  );
}

export function GirlfriendChatSection() {
  const { t } = useTranslation();
  return (
    <LandingSection
      id="ai-girlfriend-chat"
      tone="raised"
      align="start"
      title={t('landing.girlfriendChat.heading')}
      intro={t('landing.girlfriendChat.intro')}
    >
      <div className="lp-split">
        <ChatPreview />
        <div className="lp-split-pitch">
          <CheckList color="var(--lp-colors-pink-300)" items={POINTS.map((point) => t(`landing.girlfriendChat.points.${point}`))} />
          <AppLink to="/signup" className="lp-btn lp-btn-solid lp-btn-md lp-btn-pill lp-split-cta">
            {t('landing.girlfriendChat.cta')}
            <ArrowRightIcon />
          </AppLink>
        </div>
      </div>
    </LandingSection>
  );
}
