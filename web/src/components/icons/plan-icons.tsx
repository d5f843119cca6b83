import type { IconProps } from '@chakra-ui/react';
import { StrokeIcon } from './icons';

export { CheckIcon } from './landing-icons';

export function SparkleIcon(props: IconProps) {
  return (
    <StrokeIcon {...props}>
      <path d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z" />
      <path d="M19 17v4M17 19h4" />
    </StrokeIcon>
  );
}
