import type { IconProps } from '@chakra-ui/react';
import { StrokeIcon } from '../../../components/icons/icons';

/** Inline stroke icons for the chat settings (decorative: buttons carry the label). */

export function SlidersIcon(props: IconProps) {
  return (
    <StrokeIcon {...props}>
      <path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12" />
      <circle cx="16" cy="6" r="2" />
      <circle cx="10" cy="12" r="2" />
      <circle cx="18" cy="18" r="2" />
    </StrokeIcon>
  );
}

export function PersonaIcon(props: IconProps) {
  return (
    <StrokeIcon {...props}>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </StrokeIcon>
  );
}

/** Stacked layers: what went into a reply's prompt. */
export function ContextIcon(props: IconProps) {
  return (
    <StrokeIcon {...props}>
      <path d="m12 3 9 5-9 5-9-5z" />
      <path d="m3 13 9 5 9-5" />
    </StrokeIcon>
  );
}
