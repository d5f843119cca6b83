import type { IconProps } from '@chakra-ui/react';
import { StrokeIcon } from './icons';

/** An open book: Stories in the navigation, the dashboard and the list. */
export function StoryIcon(props: IconProps) {
  return (
    <StrokeIcon {...props}>
      <path d="M2 4h6a4 4 0 0 1 4 4v13a3 3 0 0 0-3-3H2z" />
      <path d="M22 4h-6a4 4 0 0 0-4 4v13a3 3 0 0 1 3-3h7z" />
    </StrokeIcon>
  );
}

export function BookmarkIcon(props: IconProps) {
  return (
    <StrokeIcon {...props}>
      <path d="M19 21l-7-5-7 5V5a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2z" />
    </StrokeIcon>
  );
}

/** Going back to an earlier passage. */
export function UndoIcon(props: IconProps) {
  return (
    <StrokeIcon {...props}>
      <path d="M9 14 4 9l5-5" />
      <path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
    </StrokeIcon>
  );
}

export function ArrowLeftIcon(props: IconProps) {
  return (
    <StrokeIcon {...props}>
      <path d="M19 12H5M12 19l-7-7 7-7" />
    </StrokeIcon>
  );
}
