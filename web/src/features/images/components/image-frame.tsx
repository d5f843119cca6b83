import { Box, type BoxProps } from '@chakra-ui/react';
import { useState } from 'react';
import type { ImageFieldsFragment } from '../../../gql/graphql';
import { placeholderDataUrl } from '../thumbhash-placeholder';

type FrameImage = Pick<ImageFieldsFragment, 'id' | 'imageUrl' | 'srcSet' | 'renditions' | 'placeholder' | 'width' | 'height'>;

/** The widest rendition up to `width`, else the narrowest; the original when there are none. */
function fallbackSource(image: FrameImage, width = 1024): string {
  const fitting = image.renditions.filter((rendition) => rendition.width <= width);
  return (fitting[fitting.length - 1] ?? image.renditions[0])?.url ?? image.imageUrl;
}

type ImageFrameProps = {
  image: FrameImage;
  alt: string;
  /** The `sizes` attribute: how wide the image is drawn at each viewport width. */
  sizes: string;
  /** Width / height of the box; the image's own by default. */
  ratio?: number;
  fit?: 'cover' | 'contain';
  /** Load at once (the main picture of a screen) rather than when scrolled near. */
  eager?: boolean;
  onError?: () => void;
} & Omit<BoxProps, 'onError'>;

/**
 * An image in a box of fixed proportions (its own, or `ratio`), so nothing moves when it arrives.
 * Its ThumbHash is drawn underneath until the picture has loaded; the browser picks a WebP
 * rendition from `srcSet` for `sizes`. `onError` reports a picture that could not be loaded.
 */
export function ImageFrame(props: ImageFrameProps) {
  // A new image starts unloaded again (its placeholder shows until it arrives).
  return <LoadingImage key={props.image.id} {...props} />;
}

function LoadingImage({ image, alt, sizes, ratio, fit = 'cover', eager = false, onError, ...boxProps }: ImageFrameProps) {
  const [loaded, setLoaded] = useState(false);
  const placeholder = placeholderDataUrl(image.placeholder);
  const aspectRatio = ratio ?? (image.width > 0 && image.height > 0 ? image.width / image.height : 1);

  return (
    <Box
      as="span"
      display="block"
      position="relative"
      overflow="hidden"
      bg="bg.muted"
      aspectRatio={aspectRatio}
      width="full"
      data-loaded={loaded ? 'true' : undefined}
      {...boxProps}
      style={
        placeholder
          ? {
              backgroundImage: `url("${placeholder}")`,
              backgroundSize: fit === 'cover' ? 'cover' : 'contain',
              backgroundPosition: 'center',
              backgroundRepeat: 'no-repeat',
            }
          : undefined
      }
    >
      <img
        src={fallbackSource(image)}
        srcSet={image.srcSet || undefined}
        sizes={image.srcSet ? sizes : undefined}
        alt={alt}
        width={image.width}
        height={image.height}
        loading={eager ? 'eager' : 'lazy'}
        decoding="async"
        onLoad={() => setLoaded(true)}
        onError={onError}
        style={{
          position: 'absolute',
          inset: 0,
          width: '100%',
          height: '100%',
          objectFit: fit,
          opacity: loaded ? 1 : 0,
          transition: 'opacity 0.25s ease-out',
        }}
      />
    </Box>
  );
}
