import { Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { getBrandName } from '../lib/app-config';

export function BrandLink() {
  return (
    // The brand never wraps or shrinks: the bar's other items give way instead.
    <Link
      asChild
      fontWeight="bold"
      fontSize="xl"
      letterSpacing="tight"
      color="fg"
      whiteSpace="nowrap"
      flexShrink="0"
      _hover={{ textDecoration: 'none', color: 'purple.300' }}
    >
      <RouterLink to="/">{getBrandName()}</RouterLink>
    </Link>
  );
}
