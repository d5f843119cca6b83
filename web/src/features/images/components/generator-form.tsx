import { Alert, Box, Button, Field, Flex, NativeSelect, Progress, SimpleGrid, Stack, Text, Textarea, Wrap } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import type { FormEvent, KeyboardEvent } from 'react';
import type { ImageQuality, ImageSize, ImageStyle } from '../../../gql/graphql';
import {
  generationPhase,
  isImageQuality,
  isImageSize,
  isImageStyle,
  progressPercent,
  PROMPT_MAX_LENGTH,
  QUALITY_OPTIONS,
  SIZE_OPTIONS,
  STYLE_OPTIONS,
  type ImageSettingsValue,
} from '../image-settings';
import type { GenerationJob } from '../hooks/use-image-generation';
import { SparklesIcon, WandIcon } from '../../../components/icons/media-icons';

function SettingSelect<T extends string>({
  label,
  value,
  options,
  isValue,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  isValue: (value: unknown) => value is T;
  onChange: (value: T) => void;
}) {
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field
          value={value}
          onChange={(event) => {
            if (isValue(event.target.value)) onChange(event.target.value);
          }}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/** Progress of the job being drawn: the real fraction from the live updates, indeterminate until known. */
function GenerationProgress({ job, cancelling, onCancel }: { job: GenerationJob | null; cancelling: boolean; onCancel: () => void }) {
  const percent = job ? progressPercent(job) : null;
  return (
    <Stack gap="3" borderWidth="1px" borderColor="purple.800" bg="purple.950/40" rounded="lg" p="4" data-testid="generation-progress">
      <Progress.Root
        value={percent}
        max={100}
        colorPalette="purple"
        size="sm"
        translations={{
          value: ({ value }) => (value === null ? 'Image generation progress: starting' : `Image generation progress: ${value}%`),
        }}
      >
        <Flex justify="space-between" align="baseline" gap="3" mb="2">
          <Progress.Label fontSize="sm" fontWeight="medium" role="status">
            Creating your masterpiece...
          </Progress.Label>
          {percent !== null && (
            <Text fontSize="sm" color="fg.muted" data-testid="generation-percent">
              {percent}%
            </Text>
          )}
        </Flex>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Flex justify="space-between" align="center" gap="3">
        <Stack gap="0.5" minW="0">
          <Text fontSize="sm" color="fg.muted" data-testid="generation-phase">
            {job ? generationPhase(job) : 'Sending your prompt…'}
          </Text>
          {job && (
            <Text fontSize="xs" color="fg.subtle" truncate title={job.prompt} data-testid="generation-prompt">
              {job.prompt}
            </Text>
          )}
        </Stack>
        <Button size="xs" variant="outline" colorPalette="red" onClick={onCancel} disabled={!job} loading={cancelling}>
          Cancel
        </Button>
      </Flex>
    </Stack>
  );
}

/** Prompt, quick ideas, the three settings, Generate Image, and the progress of a pending generation. */
export function GeneratorForm({
  prompt,
  onPromptChange,
  settings,
  onSettingsChange,
  ideas,
  outOfTokens,
  pending,
  job,
  cancelling,
  onGenerate,
  onCancel,
}: {
  prompt: string;
  onPromptChange: (prompt: string) => void;
  settings: ImageSettingsValue;
  onSettingsChange: (settings: ImageSettingsValue) => void;
  ideas: readonly { label: string; prompt: string }[];
  /** The balance is 0: say so, and where to get more. */
  outOfTokens: boolean;
  pending: boolean;
  job: GenerationJob | null;
  cancelling: boolean;
  /** Validates (blank prompt: toast) and starts. */
  onGenerate: () => void;
  onCancel: () => void;
}) {
  const isBlank = prompt.trim().length === 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onGenerate();
  };

  // Ctrl/Cmd+Enter generates from the prompt box (a blank prompt then gets its explanation).
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey) || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!pending) onGenerate();
  };

  return (
    <Stack as="form" onSubmit={submit} gap="5" data-testid="generator-form">
      <Field.Root>
        <Field.Label>Describe your image</Field.Label>
        <Textarea
          value={prompt}
          onChange={(event) => onPromptChange(event.target.value)}
          onKeyDown={onKeyDown}
          rows={5}
          maxLength={PROMPT_MAX_LENGTH}
          placeholder="A cozy cabin in a snowy forest at dusk, warm light in the windows…"
          resize="vertical"
          data-testid="prompt-input"
        />
        <Field.HelperText>Be specific: subject, setting, lighting, mood. Ctrl+Enter generates.</Field.HelperText>
      </Field.Root>

      <Box role="group" aria-labelledby="quick-ideas-label">
        <Text id="quick-ideas-label" fontSize="sm" color="fg.muted" mb="2">
          Quick ideas
        </Text>
        <Wrap gap="2">
          {ideas.map((idea) => (
            <Button
              key={idea.label}
              size="xs"
              variant="outline"
              rounded="full"
              onClick={() => onPromptChange(idea.prompt)}
              data-testid="quick-idea"
            >
              <WandIcon />
              {idea.label}
            </Button>
          ))}
        </Wrap>
      </Box>

      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
        <Box gridColumn={{ sm: 'span 2' }}>
          <SettingSelect<ImageSize>
            label="Size"
            value={settings.size}
            options={SIZE_OPTIONS}
            isValue={isImageSize}
            onChange={(size) => onSettingsChange({ ...settings, size })}
          />
        </Box>
        <SettingSelect<ImageQuality>
          label="Quality"
          value={settings.quality}
          options={QUALITY_OPTIONS}
          isValue={isImageQuality}
          onChange={(quality) => onSettingsChange({ ...settings, quality })}
        />
        <SettingSelect<ImageStyle>
          label="Style"
          value={settings.style}
          options={STYLE_OPTIONS}
          isValue={isImageStyle}
          onChange={(style) => onSettingsChange({ ...settings, style })}
        />
      </SimpleGrid>

      <Button type="submit" colorPalette="purple" size="lg" disabled={isBlank || pending} data-testid="generate-button">
        <SparklesIcon />
        {pending ? 'Generating...' : 'Generate Image'}
      </Button>
      <Text fontSize="xs" color="fg.muted" textAlign="center" mt="-3">
        Each image costs 1 token.
      </Text>

      {outOfTokens && !pending && (
        <Alert.Root status="warning" size="sm" data-testid="out-of-tokens-notice">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>You are out of tokens.</Alert.Title>
            <Alert.Description>Each image costs 1 token. Buy more to keep creating.</Alert.Description>
          </Alert.Content>
          <Button asChild size="sm" colorPalette="purple" alignSelf="center">
            <RouterLink to="/subscribe">Buy Tokens</RouterLink>
          </Button>
        </Alert.Root>
      )}

      {pending && <GenerationProgress job={job} cancelling={cancelling} onCancel={onCancel} />}
    </Stack>
  );
}
