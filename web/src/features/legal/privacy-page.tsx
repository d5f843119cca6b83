import { Button, Code } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { ArrowLeftIcon } from '../../components/icons/legal-icons';
import {
  LegalList,
  LegalNotice,
  LegalParagraph,
  LegalRouteLink,
  LegalSubheading,
  LegalTerm,
  SupportEmailLink,
} from './components/legal-text';
import { getBrandName } from '../../lib/app-config';
import { type LegalSection, LegalPageLayout } from './components/legal-page-layout';

// Legal text is English-only in this release (not translated).

/** Days within which privacy requests are answered (spec §9). */
const PRIVACY_RESPONSE_DAYS = 30;

function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function InlineCode({ children }: { children: ReactNode }) {
  return (
    <Code size="sm" colorPalette="purple" variant="subtle">
      {children}
    </Code>
  );
}

function privacySections(brand: string): LegalSection[] {
  const sections: { title: string; content: ReactNode }[] = [
    {
      title: 'Information We Collect',
      content: (
        <>
          <LegalParagraph>We collect only what we need to run the Service:</LegalParagraph>
          <LegalTerm term="Account information.">
            Your e-mail address, your password (stored only as a salted hash, never in readable form), your first and last name if you give
            them, your date of birth (to confirm that you are 18 or older), the time you accepted our Terms of Service, and a profile image
            if you add one.
          </LegalTerm>
          <LegalTerm term="Content you create.">
            Your prompts, your chat conversations with AI characters, the characters, images and stories you create, whether each item is
            public or private, and the likes you give.
          </LegalTerm>
          <LegalTerm term="Self-AI photos.">Photos of yourself that you choose to upload to the self-AI feature (1 to 5 photos).</LegalTerm>
          <LegalTerm term="Usage and technical information.">
            Your token balance and token transactions, your monthly usage counts, sign-in times, your IP address (used for security, such as
            limiting repeated sign-up and sign-in attempts), and basic browser and device details recorded in server logs.
          </LegalTerm>
          <LegalTerm term="Payment information.">
            When you buy a plan or tokens, payments are handled by our payment processor. We receive only what we need to manage your
            subscription, such as the plan, amount and payment status, and never your full card number.
          </LegalTerm>
          <LegalTerm term="Messages to us.">The content of e-mails you send to our support team.</LegalTerm>
        </>
      ),
    },
    {
      title: 'How We Use Your Information',
      content: (
        <>
          <LegalParagraph>We use your information to:</LegalParagraph>
          <LegalList
            items={[
              'create and maintain your account, keep you signed in and provide the features you use, such as generating images, replying in chats and showing your gallery;',
              'confirm that you are 18 or older and eligible to use the Service;',
              'track token balances and monthly usage limits for your plan;',
              'keep the Service secure, prevent fraud and abuse, and enforce our Terms of Service;',
              'send you service messages and answer your requests;',
              'understand, in aggregate, how the Service is used, so that we can fix problems and improve it;',
              'meet our legal obligations.',
            ]}
          />
          <LegalParagraph>
            We do not use your private content or your self-AI photos for advertising, and we keep your information only for as long as your
            account is active or the law requires. When you delete content or close your account, we delete the related information within a
            reasonable time, except where we must keep it by law.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Information Sharing',
      content: (
        <>
          <LegalParagraph>
            <strong>We do not sell or rent your personal information.</strong> We share it only in these cases:
          </LegalParagraph>
          <LegalList
            items={[
              <>
                <strong>Content you make public.</strong> Images in the public gallery, public characters and your display name are visible
                to other members. Private content is not.
              </>,
              <>
                <strong>Service providers.</strong> Companies that host, store, process payments or send e-mail on our behalf, under
                contracts that allow them to use the information only to provide those services to us.
              </>,
              <>
                <strong>Legal reasons.</strong> When the law requires it, or when it is necessary to protect the rights, property or safety
                of our members, the public or {brand}. Content involving the sexual exploitation of minors is reported to the relevant
                authorities.
              </>,
              <>
                <strong>Business transfers.</strong> If {brand} is involved in a merger, acquisition or sale of assets, your information may
                be transferred; this policy will continue to protect it, and we will tell you before it becomes subject to a different
                policy.
              </>,
            ]}
          />
          <LegalParagraph>Your self-AI photos are never shared with other members or third parties.</LegalParagraph>
        </>
      ),
    },
    {
      title: 'Data Security',
      content: (
        <>
          <LegalParagraph>We protect your information with technical and organisational measures, including:</LegalParagraph>
          <LegalList
            items={[
              'passwords stored only as strong, salted hashes;',
              <>
                a session cookie, <InlineCode>sid</InlineCode>, that is <InlineCode>HttpOnly</InlineCode> (scripts in the page cannot read
                it), limited to same-site requests, and sent only over encrypted connections where HTTPS is used;
              </>,
              'sessions that expire after a period without use and that end when you log out;',
              'self-AI photos encrypted in storage and accessible only to the processing that creates your content;',
              'rate limits on sign-up and sign-in attempts, and access restricted to the people who need it to run the Service.',
            ]}
          />
          <LegalParagraph>
            No system is completely secure. Keep your password private, and tell us at once at <SupportEmailLink /> if you suspect that
            someone else has used your account. If a breach affects your information, we will notify you as the law requires.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Cookies and Tracking',
      content: (
        <>
          <LegalTerm term="Essential cookie.">
            We use one cookie, <InlineCode>sid</InlineCode>, to keep you signed in. It is strictly necessary for the member area, is not
            readable by scripts and is removed when you log out or when your session expires.
          </LegalTerm>
          <LegalTerm term="Local storage.">
            Your browser may store your preferred display language on your device. It never leaves your device.
          </LegalTerm>
          <LegalTerm term="Analytics.">
            Web analytics are optional and run only when the operator of this site has configured an analytics service. When they do, we
            record page views and basic events (such as which page was opened) to understand usage in aggregate.
          </LegalTerm>
          <LegalParagraph>
            We do not use advertising cookies and do not track you across other websites. You can block or delete cookies in your browser
            settings, but without the session cookie you cannot sign in.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Your Privacy Rights',
      content: (
        <>
          <LegalParagraph>Depending on where you live, you may have the right to:</LegalParagraph>
          <LegalList
            items={[
              'access the personal information we hold about you and receive a copy of it;',
              'correct information that is inaccurate or incomplete;',
              'delete your information and close your account;',
              'receive your information in a portable format;',
              'object to or restrict certain uses of your information, and withdraw consent where we rely on it.',
            ]}
          />
          <LegalParagraph>
            You can make your content private or delete it at any time, and you can delete your self-AI photos at any time. For any other
            request, e-mail <SupportEmailLink /> from the address registered to your account. We may need to confirm your identity, and we
            answer every request <strong>within {PRIVACY_RESPONSE_DAYS} days</strong>.
          </LegalParagraph>
          <LegalParagraph>
            You also have the right to complain to your local data-protection authority. Exercising your rights never affects how we treat
            you.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'International Users',
      content: (
        <>
          <LegalParagraph>
            {brand} is used by adults in many countries. Your information may be stored and processed in countries other than your own,
            whose data-protection laws may differ. Where the law requires it, we use appropriate safeguards, such as standard contractual
            clauses, for these transfers.
          </LegalParagraph>
          <LegalParagraph>
            You are responsible for making sure that using an adult service is lawful where you live. The minimum age of 18 applies
            everywhere, even where local law sets a lower age of majority.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Contact Us',
      content: (
        <LegalParagraph>
          For questions about this Privacy Policy or how we handle your information, or to exercise your privacy rights, contact us at{' '}
          <SupportEmailLink />.
        </LegalParagraph>
      ),
    },
    {
      title: 'Policy Updates',
      content: (
        <>
          <LegalParagraph>
            We may update this Privacy Policy as the Service changes or the law evolves. When we do, we change the “Last updated” date at
            the top of this page. If the changes are significant, we will tell you in advance by e-mail or through a notice in the Service.
          </LegalParagraph>
          <LegalSubheading>Related documents</LegalSubheading>
          <LegalParagraph>
            Please also read our <LegalRouteLink to="/tos">Terms of Service</LegalRouteLink>, which govern your use of {brand}.
          </LegalParagraph>
        </>
      ),
    },
  ];

  return sections.map(({ title, content }) => ({ id: slug(title), title, content }));
}

export default function PrivacyPage() {
  const brand = getBrandName();
  return (
    <LegalPageLayout
      title="Privacy Policy"
      dateLabel="Last updated"
      date="July 18, 2025"
      dateTime="2025-07-18"
      intro={
        <p>
          This Privacy Policy explains what personal information {brand} collects when you use our website and services, how we use and
          protect it, and the choices and rights you have.
        </p>
      }
      notice={
        <LegalNotice title="Age Restriction Notice">
          <LegalParagraph>
            {brand} is intended exclusively for adults aged 18 and over. We do not knowingly collect personal information from anyone under
            18. If we learn that we have, we close the account and delete its information. If you believe a minor has given us their
            information, please contact <SupportEmailLink />.
          </LegalParagraph>
        </LegalNotice>
      }
      sections={privacySections(brand)}
      actions={
        <>
          <Button asChild colorPalette="purple">
            <RouterLink to="/tos">View Terms of Service</RouterLink>
          </Button>
          <Button asChild variant="outline">
            <RouterLink to="/">
              <ArrowLeftIcon />
              Back to Platform
            </RouterLink>
          </Button>
        </>
      }
    />
  );
}
