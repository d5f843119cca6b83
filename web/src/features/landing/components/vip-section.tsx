import { useTranslation } from 'react-i18next';
import { CrownIcon } from '../../../components/icons/landing-icons';
import { formatUsd } from '../format';
import { registerInterest } from '../interest-feedback';
import { nameContainingLabel } from '../label-in-name';
import { CheckList, LandingSection } from './landing-section';
import '../../../styles/kit.css';
import './vip-section.css';

/** Spec §1, §9: VIP groups, display only; Subscribe records interest and takes no payment. */
const PLANS = [
  { key: 'basic', interest: 'vip-basic', price: 9.99, perks: ['group', 'drops', 'early'], highlighted: false },
  { key: 'premium', interest: 'vip-premium', price: 19.99, perks: ['everything', 'daily', 'requests', 'stories'], highlighted: true },
] as const;

export function VipSection() {
  const { t, i18n } = useTranslation();
  return (
    <LandingSection id="pricing" title={t('landing.vip.heading')} intro={t('landing.vip.intro')}>
      <ul className="lp-vip-plans">
        {PLANS.map((plan) => {
          const name = t(`landing.vip.plans.${plan.key}.name`);
          const price = formatUsd(plan.price, i18n.language);
          return (
            <li key={plan.key}>
              <div
                className={plan.highlighted ? 'lp-card lp-vip-plan lp-vip-plan-highlighted' : 'lp-card lp-vip-plan'}
                data-testid={`vip-plan-${plan.interest}`}
              >
                <div className="lp-card-header lp-vip-plan-header">
                  <div className="lp-vip-plan-title-row">
                    <div className="lp-vip-plan-title">
                      <CrownIcon className="lp-vip-plan-icon" />
                      <h3 className="lp-heading lp-heading-xl">{name}</h3>
                    </div>
                    {plan.highlighted ? (
                      <span className="lp-badge lp-badge-solid lp-badge-sm lp-badge-pill lp-vip-popular">{t('landing.vip.popular')}</span>
                    ) : null}
                  </div>
                  <p className="lp-vip-muted">{t(`landing.vip.plans.${plan.key}.description`)}</p>
                </div>
                <div className="lp-card-body lp-vip-plan-body">
                  <p>
                    <span className="lp-vip-price" aria-hidden="true">
                      {price}
                    </span>
                    <span className="lp-vip-per-month" aria-hidden="true">
                      {t('landing.vip.perMonth')}
                    </span>
                    <span className="lp-sr-only">{t('landing.vip.pricePerMonth', { price })}</span>
                  </p>
                  <CheckList
                    color="var(--lp-colors-green-300)"
                    items={plan.perks.map((perk) =>
                      t(`landing.vip.plans.${plan.key}.perks.${perk}` as 'landing.vip.plans.basic.perks.group'),
                    )}
                  />
                </div>
                <div className="lp-card-footer">
                  <button
                    type="button"
                    className={`lp-btn ${plan.highlighted ? 'lp-btn-solid' : 'lp-btn-outline-purple'} lp-btn-lg lp-btn-pill lp-vip-subscribe`}
                    aria-label={nameContainingLabel(t('landing.vip.subscribe'), t('landing.vip.subscribeTo', { plan: name }), name)}
                    onClick={() => registerInterest('vip_subscribe', plan.interest)}
                  >
                    {t('landing.vip.subscribe')}
                  </button>
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      <p className="lp-vip-note">{t('landing.vip.note')}</p>
    </LandingSection>
  );
}
