import { getBrandName } from '../lib/app-config';
import { AppLink } from './app-link';
import '../styles/kit.css';
import './brand-link.css';

export function BrandLink() {
  return (
    <AppLink to="/" className="lp-brand">
      {getBrandName()}
    </AppLink>
  );
}
