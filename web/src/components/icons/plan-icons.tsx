import { Icon, type IconProps } from '@chakra-ui/react';
import { StrokeIcon } from './icons';
import { CheckIcon as PlainCheckIcon } from './landing-icons';

/** The landing's plain check, wrapped so the plans pages can keep passing Chakra props (boxSize, color…). */
export function CheckIcon(props: IconProps) {
  return (
    <Icon {...props} asChild>
      <PlainCheckIcon />
    </Icon>
  );
}

export function SparkleIcon(props: IconProps) {
  return (
    <StrokeIcon {...props}>
      <path d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z" />
      <path d="M19 17v4M17 19h4" />
    </StrokeIcon>
  );
}
