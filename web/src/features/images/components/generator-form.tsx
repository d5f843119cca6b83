import { Alert, Box, Button, Field, Flex, NativeSelect, Progress, SimpleGrid, Stack, Text, Textarea, Wrap } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router';
import { type ComponentProps, type FormEvent, type KeyboardEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageQuality, ImageSize, ImageStyle } from '../../../gql/graphql';
import {
  formatPercent,
  generationPhase,
  isImageQuality,
  isImageSize,
  isImageStyle,
  progressPercent,
  PROMPT_MAX_LENGTH,
  QUALITY_OPTIONS,
  qualityLabel,
  SIZE_OPTIONS,
  sizeLabel,
  STYLE_OPTIONS,
  styleLabel,
  type ImageSettingsValue,
} from '../image-settings';
import { AdvancedSettingsFields } from './advanced-settings-fields';

type AdvancedSectionProps = ComponentProps<typeof AdvancedSettingsFields>;
import type { GenerationJob } from '../hooks/use-image-generation';
import { SparklesIcon, WandIcon } from '../../../components/icons/media-icons';

function SettingSelect<T extends string>({
  label,
  value,
  options,
  labelOf,
  isValue,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  labelOf: (value: T) => string;
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
            <option key={option} value={option}>
              {labelOf(option)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/**
 * Progress of the job being drawn: the real fraction from the live updates, indeterminate until known.
 * It scrolls itself into view when it appears, since the form can be taller than the screen.
 */
function GenerationProgress({ job, cancelling, onCancel }: { job: GenerationJob | null; cancelling: boolean; onCancel: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  const percent = job ? progressPercent(job) : null;
  return (
    <Stack
      ref={ref}
      gap="3"
      borderWidth="1px"
      borderColor="purple.800"
      bg="purple.950/40"
      rounded="lg"
      p="4"
      data-testid="generation-progress"
    >
      <Progress.Root
        value={percent}
        max={100}
        colorPalette="purple"
        size="sm"
        translations={{
          value: ({ value }) => (value === null ? t('images.progress.ariaStarting') : t('images.progress.ariaValue', { value })),
        }}
      >
        <Flex justify="space-between" align="baseline" gap="3" mb="2">
          <Progress.Label fontSize="sm" fontWeight="medium" role="status">
            {t('images.progress.label')}
          </Progress.Label>
          {percent !== null && (
            <Text fontSize="sm" color="fg.muted" data-testid="generation-percent">
              {formatPercent(percent)}
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
            {job ? generationPhase(job) : t('images.progress.sending')}
          </Text>
          {job && (
            <Text fontSize="xs" color="fg.subtle" truncate title={job.prompt} data-testid="generation-prompt">
              {job.prompt}
            </Text>
          )}
        </Stack>
        <Button size="xs" variant="outline" colorPalette="red" onClick={onCancel} disabled={!job} loading={cancelling}>
          {t('common.cancel')}
        </Button>
      </Flex>
    </Stack>
  );
}

/**
 * Prompt, quick ideas, the three settings, the advanced settings the renderer honours, Generate Image, and
 * the progress of a pending generation (placed right under the button, and scrolled into view).
 */
export function GeneratorForm({
  prompt,
  onPromptChange,
  settings,
  onSettingsChange,
  advanced,
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
  /** The advanced settings section, or null until the renderer is known. */
  advanced: AdvancedSectionProps | null;
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
  const { t } = useTranslation();
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
        <Field.Label>{t('images.form.promptLabel')}</Field.Label>
        <Textarea
          value={prompt}
          onChange={(event) => onPromptChange(event.target.value)}
          onKeyDown={onKeyDown}
          rows={5}
          maxLength={PROMPT_MAX_LENGTH}
          placeholder={t('images.form.promptPlaceholder')}
          resize="vertical"
          data-testid="prompt-input"
        />
        <Field.HelperText>{t('images.form.promptHelp')}</Field.HelperText>
      </Field.Root>

      <Box role="group" aria-labelledby="quick-ideas-label">
        <Text id="quick-ideas-label" fontSize="sm" color="fg.muted" mb="2">
          {t('images.form.quickIdeas')}
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
            label={t('images.form.size')}
            value={settings.size}
            options={SIZE_OPTIONS}
            labelOf={sizeLabel}
            isValue={isImageSize}
            onChange={(size) => onSettingsChange({ ...settings, size })}
          />
        </Box>
        <SettingSelect<ImageQuality>
          label={t('images.form.quality')}
          value={settings.quality}
          options={QUALITY_OPTIONS}
          labelOf={qualityLabel}
          isValue={isImageQuality}
          onChange={(quality) => onSettingsChange({ ...settings, quality })}
        />
        <SettingSelect<ImageStyle>
          label={t('images.form.style')}
          value={settings.style}
          options={STYLE_OPTIONS}
          labelOf={styleLabel}
          isValue={isImageStyle}
          onChange={(style) => onSettingsChange({ ...settings, style })}
        />
      </SimpleGrid>

      {advanced && <AdvancedSettingsFields {...advanced} />}

      <Button type="submit" colorPalette="purple" size="lg" disabled={isBlank || pending} data-testid="generate-button">
        <SparklesIcon />
        {pending ? t('images.form.generating') : t('images.form.generate')}
      </Button>
      {pending ? (
        <GenerationProgress job={job} cancelling={cancelling} onCancel={onCancel} />
      ) : (
        <Text fontSize="xs" color="fg.muted" textAlign="center" mt="-3">
          {t('images.form.cost')}
        </Text>
      )}

      {outOfTokens && !pending && (
        <Alert.Root status="warning" size="sm" data-testid="out-of-tokens-notice">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('images.form.outOfTokensTitle')}</Alert.Title>
            <Alert.Description>{t('images.form.outOfTokensDescription')}</Alert.Description>
          </Alert.Content>
          <Button asChild size="sm" colorPalette="purple" alignSelf="center">
            <RouterLink to="/subscribe">{t('images.form.buyTokens')}</RouterLink>
          </Button>
        </Alert.Root>
      )}
    </Stack>
  );
}
