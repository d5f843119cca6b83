import type { CSSProperties, ReactNode } from 'react';
import { CheckIcon } from '../../../components/icons/landing-icons';
import '../../../styles/kit.css';
import './landing-section.css';

export function ComingSoonBadge({ children }: { children: ReactNode }) {
  return (
    <span className="lp-badge lp-badge-subtle lp-badge-md lp-badge-pill lp-section-badge" data-testid="coming-soon-badge">
      {children}
    </span>
  );
}

/** One landing section: a labelled <section> with an h2, an optional badge and intro, then content. */
export function LandingSection({
  id,
  title,
  intro,
  badge,
  align = 'center',
  tone = 'plain',
  headingTestId,
  children,
}: {
  id: string;
  title: ReactNode;
  intro?: ReactNode;
  badge?: ReactNode;
  align?: 'center' | 'start';
  tone?: 'plain' | 'raised';
  headingTestId?: string;
  children?: ReactNode;
}) {
  const headingId = `${id}-heading`;
  const sectionClass = tone === 'raised' ? 'lp-section lp-section-raised' : 'lp-section';
  const headerClass = `lp-section-header lp-section-header-${align}${children ? ' lp-section-header-spaced' : ''}`;
  return (
    <section id={id} aria-labelledby={headingId} className={sectionClass}>
      <div className="lp-container lp-container-6xl">
        <div className={headerClass}>
          {badge}
          <h2 id={headingId} className="lp-heading lp-section-title" data-testid={headingTestId}>
            {title}
          </h2>
          {intro ? <p className="lp-section-intro">{intro}</p> : null}
        </div>
        {children}
      </div>
    </section>
  );
}

/** A bulleted list with check marks; `color` is any CSS colour, e.g. 'var(--lp-colors-green-300)'. */
export function CheckList({ items, color = 'var(--lp-colors-purple-300)' }: { items: ReactNode[]; color?: string }) {
  return (
    <ul className="lp-check-list" style={{ '--lp-check-list-color': color } as CSSProperties}>
      {items.map((item, index) => (
        <li key={index} className="lp-check-list-item">
          <CheckIcon className="lp-check-list-icon" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}
