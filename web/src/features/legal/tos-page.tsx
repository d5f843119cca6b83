import type { ReactNode } from 'react';
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

/** Free-tier monthly allowances (spec §9). */
const FREE_TIER = { images: 3, chatMessages: 10, characters: 2, stories: 2 } as const;

function termsSections(brand: string): LegalSection[] {
  const sections: { title: string; content: ReactNode }[] = [
    {
      title: 'Agreement to Terms',
      content: (
        <>
          <LegalParagraph>
            These Terms of Service (the “Terms”) are a binding agreement between you and the operator of {brand} (“{brand}”, “we”, “us” or
            “our”). They govern your access to and use of the {brand} website, applications and related services (together, the “Service”).
          </LegalParagraph>
          <LegalParagraph>
            By creating an account, ticking the box that accepts these Terms, or otherwise accessing or using the Service, you confirm that
            you have read, understood and agree to be bound by these Terms and by our{' '}
            <LegalRouteLink to="/privacy">Privacy Policy</LegalRouteLink>. If you do not agree, you must not access or use the Service.
          </LegalParagraph>
          <LegalParagraph>
            Guidelines, plan descriptions and notices that we publish within the Service form part of these Terms. If they conflict with
            these Terms, these Terms prevail.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Age Verification',
      content: (
        <>
          <LegalParagraph>
            The Service contains sexually explicit material and other content intended for adults. It is available{' '}
            <strong>only to people who are at least 18 years old</strong>, or the age of majority where they live if that is higher.
          </LegalParagraph>
          <LegalList
            items={[
              'When you register, you must give your true date of birth and confirm that you are 18 or older. Registrations from anyone under 18 are refused.',
              'Giving a false date of birth, or helping a minor to access the Service, is a serious breach of these Terms.',
              'If we learn or reasonably suspect that an account belongs to a minor, we will terminate that account immediately and delete its content, without refund.',
              'You are responsible for making sure that accessing adult content is lawful where you are, and for keeping minors away from the Service on devices you control, for example by using parental-control tools.',
            ]}
          />
          <LegalParagraph>
            We may ask you to verify your age at any time. If you believe a minor is using the Service, please tell us at{' '}
            <SupportEmailLink />.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Description of Service',
      content: (
        <>
          <LegalParagraph>
            {brand} is an AI creative platform that lets adults create and interact with AI-generated content. Depending on availability and
            your plan, the Service includes:
          </LegalParagraph>
          <LegalList
            items={[
              'Text-to-video generation (announced features are rolled out progressively);',
              'AI image creation and manipulation;',
              'Interactive AI girlfriend chat with AI characters;',
              'Adult story and game generation;',
              'Character creation and customisation.',
            ]}
          />
          <LegalSubheading>Plans</LegalSubheading>
          <LegalTerm term="Free tier.">
            Limited monthly usage and basic features: up to {FREE_TIER.images} image generations, {FREE_TIER.chatMessages} chat messages,{' '}
            {FREE_TIER.characters} character creations and {FREE_TIER.stories} story generations per month. Unused allowances do not carry
            over to the next month.
          </LegalTerm>
          <LegalTerm term="Premium tier.">
            Unlimited generation, faster processing and access to exclusive models, subject to the Acceptable Use rules below and to
            reasonable measures that protect the stability of the Service.
          </LegalTerm>
          <LegalSubheading>Tokens</LegalSubheading>
          <LegalParagraph>
            Some features are paid for with tokens, the Service’s internal currency: <strong>1 token = 1 AI generation</strong>. Tokens are
            credited to your account, have no cash value, cannot be transferred to another account and cannot be exchanged for money, except
            where the law requires otherwise.
          </LegalParagraph>
          <LegalParagraph>
            Features marked “Coming Soon” are not yet available and may change before release. We may add, change, suspend or discontinue
            any part of the Service at any time, and we do not guarantee that the Service will always be available or free of errors.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Acceptable Use',
      content: (
        <>
          <LegalParagraph>
            You are responsible for everything you create, upload, request or share through the Service. You must not use the Service to
            create, upload, request or share content that:
          </LegalParagraph>
          <LegalList
            items={[
              <>
                <strong>involves minors</strong>: depicts, describes or suggests anyone under 18, or anyone who appears to be under 18, in
                any context, including fictional, drawn, animated or “aged-up” scenarios;
              </>,
              <>
                <strong>is non-consensual</strong>: depicts or promotes sexual violence, coercion, exploitation or any sexual activity
                without the consent of everyone involved;
              </>,
              <>
                <strong>depicts real people without their consent</strong>: sexualised or otherwise harmful images, “deepfakes” or
                impersonation of any real, identifiable person who has not given explicit consent. Upload only photos of yourself to the
                self-AI features;
              </>,
              <>
                <strong>is illegal</strong> where you are or where we operate, or infringes anyone’s intellectual property, privacy or
                publicity rights;
              </>,
              'harasses, threatens, defames or promotes hatred or violence against any person or group.',
            ]}
          />
          <LegalParagraph>You must also not:</LegalParagraph>
          <LegalList
            items={[
              'abuse the Service: circumvent safety filters, usage limits or token balances; use bots, scrapers or automated access; probe, disrupt or overload our systems; or reverse-engineer the Service;',
              'share your account: accounts are personal and must not be shared, sold, rented or transferred, and you are responsible for all activity under your credentials;',
              'use the Service for any illegal activity, including fraud, payment fraud, money laundering or distributing malware.',
            ]}
          />
          <LegalParagraph>
            We may remove any content and <strong>suspend or terminate any account</strong> that breaches these rules, with or without
            notice. Content involving the sexual exploitation of minors is reported to the relevant authorities.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'AI-Generated Content',
      content: (
        <>
          <LegalSubheading>Disclaimers</LegalSubheading>
          <LegalList
            items={[
              'Content is generated automatically by artificial-intelligence models. It may be inaccurate, inconsistent, unexpected or offensive, and we do not review it before it is shown to you.',
              'All AI-generated content is fictional. AI characters are fictional personas, not real people: they have no feelings, memories or intentions, and any resemblance to real persons or events is coincidental.',
              'Nothing the Service produces is professional, medical, legal, financial or relationship advice. Do not rely on it for decisions about your health, safety or finances.',
            ]}
          />
          <LegalSubheading>Ownership</LegalSubheading>
          <LegalParagraph>
            You keep whatever rights you have in the prompts, text and photos you provide (“Inputs”). As between you and us, and to the
            extent the law allows, the content generated for you (“Outputs”) belongs to you, and we assign to you any rights we may have in
            it. Outputs are not necessarily unique: the same or similar content may be generated for other users. In some countries,
            AI-generated content may have limited or no copyright protection.
          </LegalParagraph>
          <LegalParagraph>
            You are responsible for your Inputs and for how you use Outputs, including making sure that your use complies with these Terms
            and the law.
          </LegalParagraph>
          <LegalSubheading>Licence for public posts</LegalSubheading>
          <LegalParagraph>
            When you make content public, for example by sharing an image to the public gallery or publishing a character, you grant us a
            worldwide, non-exclusive, royalty-free licence to host, store, reproduce, display and distribute that content within the
            Service, and to adapt it only as needed for technical display (such as resizing), for as long as it remains public. Other
            members may view and like public content. You can make content private or delete it at any time; the licence then ends, except
            for copies kept for a limited time in backups or as required by law.
          </LegalParagraph>
          <LegalParagraph>
            Private content is not shown to other members. We access it only when needed to operate the Service, to investigate a breach of
            these Terms or to comply with the law.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Privacy',
      content: (
        <>
          <LegalParagraph>
            Your privacy matters to us. Our <LegalRouteLink to="/privacy">Privacy Policy</LegalRouteLink> explains what personal information
            we collect, how we use and protect it, and the rights you have over it. By using the Service, you acknowledge that your
            information is handled as described there.
          </LegalParagraph>
          <LegalParagraph>
            Photos you upload for the self-AI features are encrypted, are never shared with other members or third parties for their own
            use, and can be deleted by you at any time.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Subscription and Payment',
      content: (
        <>
          <LegalList
            items={[
              <>
                <strong>Billing.</strong> Premium subscriptions are billed monthly, in advance, at the price shown when you subscribe, plus
                any applicable taxes.
              </>,
              <>
                <strong>Automatic renewal.</strong> Your subscription renews automatically at the end of each monthly billing period, and
                the payment method on file is charged, unless you cancel before the renewal date.
              </>,
              <>
                <strong>How to cancel.</strong> You can cancel at any time from your account’s plan settings, or by e-mailing{' '}
                <SupportEmailLink /> from the address registered to your account. Cancellation takes effect at the end of the current
                billing period, and you keep premium access until then. Your account then returns to the free tier.
              </>,
              <>
                <strong>Tokens.</strong> Token purchases are one-time payments. Purchased tokens are credited to your account and are used
                as you generate content.
              </>,
              <>
                <strong>Refunds.</strong> Except where the law requires otherwise, payments are non-refundable, and we do not refund partial
                billing periods or unused tokens.
              </>,
              <>
                <strong>Price changes.</strong> We will tell you about price changes in advance. A new price applies from your next billing
                period after the notice, and you may cancel before it takes effect.
              </>,
              <>
                <strong>Payment processing.</strong> Payments are handled by third-party payment processors. We do not store your full card
                details. If a payment fails, we may suspend premium features until it succeeds.
              </>,
            ]}
          />
        </>
      ),
    },
    {
      title: 'Intellectual Property',
      content: (
        <>
          <LegalParagraph>
            The Service, including its software, design, models, text, graphics, logos and the {brand} name, belongs to us or our licensors
            and is protected by intellectual-property laws. Apart from your Inputs and Outputs, no rights are transferred to you.
          </LegalParagraph>
          <LegalParagraph>
            Subject to these Terms, we grant you a personal, limited, non-exclusive, non-transferable and revocable licence to access and
            use the Service for your own purposes. You must not copy, modify, distribute, sell or lease any part of the Service, or remove
            any proprietary notices.
          </LegalParagraph>
          <LegalParagraph>
            If you believe content on the Service infringes your rights, or shows you in an intimate image shared without your consent, send
            us a <LegalRouteLink to="/takedown">takedown request</LegalRouteLink> (no account needed) or write to <SupportEmailLink /> with
            a description of the work, where the content appears and your contact details. We remove intimate images shared without consent
            within 48 hours of a valid request, remove infringing content and terminate the accounts of repeat infringers.
          </LegalParagraph>
          <LegalParagraph>If you send us suggestions or feedback, we may use them freely and without any obligation to you.</LegalParagraph>
        </>
      ),
    },
    {
      title: 'Limitation of Liability',
      content: (
        <>
          <LegalParagraph>
            The Service is provided “as is” and “as available”. To the fullest extent permitted by law, we make no warranties of any kind,
            express or implied, including warranties of merchantability, fitness for a particular purpose, accuracy and non-infringement.
          </LegalParagraph>
          <LegalParagraph>
            To the fullest extent permitted by law, we are not liable for any indirect, incidental, special, consequential or punitive
            damages, or for any loss of profits, data, content or goodwill, arising from or relating to your use of, or inability to use,
            the Service or any AI-generated content.
          </LegalParagraph>
          <LegalParagraph>
            <strong>
              Our total liability for all claims relating to the Service is limited to the amount you paid us for the Service in the 12
              months before the event giving rise to the claim.
            </strong>
          </LegalParagraph>
          <LegalParagraph>
            Some jurisdictions do not allow certain exclusions or limitations of liability, so parts of this section may not apply to you.
            Nothing in these Terms limits liability that cannot be limited by law, or your statutory rights as a consumer.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Account Termination',
      content: (
        <>
          <LegalParagraph>
            You may stop using the Service and ask us to close your account at any time by contacting <SupportEmailLink />.
          </LegalParagraph>
          <LegalParagraph>
            We may suspend or terminate your account, with or without notice, if you breach these Terms (including by posting prohibited
            content, abusing the Service, sharing your account or engaging in illegal activity), if we reasonably believe you are under 18,
            if the law requires it, or if it is necessary to protect other members or the Service.
          </LegalParagraph>
          <LegalParagraph>
            When an account is terminated, access ends immediately; remaining tokens and any unused subscription time are forfeited unless
            the law requires otherwise; and content linked to the account may be deleted. Sections that by their nature should continue to
            apply, including those on intellectual property, disclaimers, limitation of liability and governing law, survive termination. If
            you believe your account was closed in error, contact us.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Governing Law and Jurisdiction',
      content: (
        <>
          <LegalParagraph>
            These Terms, and any dispute arising from or relating to them or to the Service, are governed by the laws of{' '}
            <strong>[Jurisdiction to be specified by the operator]</strong>, without regard to its conflict-of-law rules.
          </LegalParagraph>
          <LegalParagraph>
            The courts of <strong>[Jurisdiction to be specified by the operator]</strong> have exclusive jurisdiction over such disputes,
            except where the consumer-protection laws of your country of residence give you the right to bring proceedings there. Before
            starting formal proceedings, please contact us so that we can try to resolve the matter informally.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Changes to Terms',
      content: (
        <>
          <LegalParagraph>
            We may update these Terms from time to time, for example to reflect new features or changes in the law. When we do, we will
            change the effective date at the top of this page. For material changes, we will notify you in advance by e-mail or through a
            notice in the Service.
          </LegalParagraph>
          <LegalParagraph>
            Changes take effect on the date stated. If you keep using the Service after that date, you accept the updated Terms; if you do
            not agree with them, stop using the Service and cancel any subscription.
          </LegalParagraph>
        </>
      ),
    },
    {
      title: 'Contact Information',
      content: (
        <>
          <LegalParagraph>
            If you have questions about these Terms, need help with your account or want to report a breach, contact us at{' '}
            <SupportEmailLink />. Please write from the e-mail address registered to your account so that we can help you faster.
          </LegalParagraph>
        </>
      ),
    },
  ];

  return sections.map(({ title, content }, index) => ({ id: `section-${index + 1}`, title: `${index + 1}. ${title}`, content }));
}

export default function TosPage() {
  const brand = getBrandName();
  return (
    <LegalPageLayout
      title="Terms of Service"
      dateLabel="Effective date"
      date="September 1, 2025"
      dateTime="2025-09-01"
      intro={
        <p>
          Welcome to {brand}. Please read these Terms carefully: they explain the rules for using our AI creative platform for adults, your
          rights and responsibilities, and ours.
        </p>
      }
      notice={
        <LegalNotice title="Important Notice">
          <LegalList
            items={[
              <>
                <strong>18+ only.</strong> {brand} is strictly for adults aged 18 and over.
              </>,
              <>
                <strong>AI content is fictional.</strong> All characters, images and stories are generated by AI and do not depict real
                people or events.
              </>,
              <>
                <strong>You are responsible for your prompts</strong> and for how you use the content you create.
              </>,
            ]}
          />
        </LegalNotice>
      }
      sections={termsSections(brand)}
    />
  );
}
