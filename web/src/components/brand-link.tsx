import { Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { getBrandName } from '../lib/app-config';

export function BrandLink() {
  return (
    <Link asChild fontWeight="bold" fontSize="xl" letterSpacing="tight" color="fg" _hover={{ textDecoration: 'none', color: 'purple.300' }}>
      <RouterLink to="/">{getBrandName()}</RouterLink>
    </Link>
  );
}
