import { Box } from '@chakra-ui/react';
import { Fragment, useMemo } from 'react';
import { formatMessage } from '../chat-format';

/** Message text with roleplay formatting: *actions* in italics, **bold**, line breaks kept. */
export function FormattedText({ content, streaming = false }: { content: string; streaming?: boolean }) {
  const lines = useMemo(() => formatMessage(content, { streaming }), [content, streaming]);
  return (
    <Box as="span" display="block" whiteSpace="pre-wrap" overflowWrap="anywhere">
      {lines.map((segments, lineIndex) => (
        <Fragment key={lineIndex}>
          {lineIndex > 0 && <br />}
          {segments.map((segment, index) => {
            if (segment.bold) return <strong key={index}>{segment.text}</strong>;
            if (segment.italic)
              return (
                <Box as="em" key={index} color="inherit" opacity={0.9}>
                  {segment.text}
                </Box>
              );
            return <Fragment key={index}>{segment.text}</Fragment>;
          })}
        </Fragment>
      ))}
    </Box>
  );
}
