import { Box, Button, Field, Input, NativeSelect, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ADVANCED_LIMITS, ADVANCED_SETTINGS, type AdvancedErrors, type AdvancedForm, type AdvancedSetting } from '../advanced-settings';

/**
 * The "Advanced settings" section of the generator: collapsed by default, and showing only the settings the
 * renderer honours (`imageProvider.advanced`); the sampler is a choice among `imageProvider.samplers`.
 */
export function AdvancedSettingsFields({
  honoured,
  samplers,
  form,
  errors,
  open,
  onOpenChange,
  onChange,
}: {
  honoured: readonly string[];
  samplers: readonly string[];
  form: AdvancedForm;
  errors: AdvancedErrors;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChange: (form: AdvancedForm) => void;
}) {
  const { t } = useTranslation();
  const panelId = useId();
  // The sampler is a choice, so it needs the renderer's list.
  const isShown = (setting: AdvancedSetting) => honoured.includes(setting) && (setting !== 'sampler' || samplers.length > 0);
  const shown = Object.fromEntries(ADVANCED_SETTINGS.map((setting) => [setting, isShown(setting)])) as Record<AdvancedSetting, boolean>;
  if (!ADVANCED_SETTINGS.some(isShown)) return null;
  const set = (setting: AdvancedSetting) => (value: string) => onChange({ ...form, [setting]: value });
  const L = ADVANCED_LIMITS;

  return (
    <Box data-testid="advanced-settings">
      <Button
        variant="ghost"
        size="sm"
        px="0"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => onOpenChange(!open)}
        data-testid="advanced-toggle"
      >
        <Text
          as="span"
          aria-hidden="true"
          display="inline-block"
          transform={open ? 'rotate(90deg)' : undefined}
          transition="transform 0.15s"
        >
          ›
        </Text>
        {t('images.advanced.toggle')}
      </Button>
      <Stack id={panelId} hidden={!open} gap="4" mt="3">
        <Text fontSize="sm" color="fg.muted">
          {t('images.advanced.hint')}
        </Text>
        {shown.negativePrompt && (
          <Field.Root invalid={Boolean(errors.negativePrompt)}>
            <Field.Label>{t('images.advanced.negativePrompt')}</Field.Label>
            <Textarea
              value={form.negativePrompt}
              onChange={(event) => set('negativePrompt')(event.target.value)}
              rows={2}
              maxLength={L.negativePromptLength}
              placeholder={t('images.advanced.negativePromptPlaceholder')}
              resize="vertical"
            />
            <Field.ErrorText>{errors.negativePrompt}</Field.ErrorText>
          </Field.Root>
        )}
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          {shown.seed && (
            <Field.Root invalid={Boolean(errors.seed)}>
              <Field.Label>{t('images.advanced.seed')}</Field.Label>
              <Input
                value={form.seed}
                onChange={(event) => set('seed')(event.target.value)}
                inputMode="numeric"
                placeholder={t('images.advanced.seedPlaceholder')}
              />
              {errors.seed ? (
                <Field.ErrorText>{errors.seed}</Field.ErrorText>
              ) : (
                <Field.HelperText>{t('images.advanced.seedHelp')}</Field.HelperText>
              )}
            </Field.Root>
          )}
          {shown.steps && (
            <Field.Root invalid={Boolean(errors.steps)}>
              <Field.Label>{t('images.advanced.steps')}</Field.Label>
              <Input value={form.steps} onChange={(event) => set('steps')(event.target.value)} inputMode="numeric" />
              {errors.steps ? (
                <Field.ErrorText>{errors.steps}</Field.ErrorText>
              ) : (
                <Field.HelperText>{t('images.advanced.range', { min: L.stepsMin, max: L.stepsMax })}</Field.HelperText>
              )}
            </Field.Root>
          )}
          {shown.cfgScale && (
            <Field.Root invalid={Boolean(errors.cfgScale)}>
              <Field.Label>{t('images.advanced.cfgScale')}</Field.Label>
              <Input value={form.cfgScale} onChange={(event) => set('cfgScale')(event.target.value)} inputMode="decimal" />
              {errors.cfgScale ? (
                <Field.ErrorText>{errors.cfgScale}</Field.ErrorText>
              ) : (
                <Field.HelperText>{t('images.advanced.range', { min: L.cfgScaleMin, max: L.cfgScaleMax })}</Field.HelperText>
              )}
            </Field.Root>
          )}
          {shown.sampler && (
            <Field.Root invalid={Boolean(errors.sampler)}>
              <Field.Label>{t('images.advanced.sampler')}</Field.Label>
              <NativeSelect.Root>
                <NativeSelect.Field value={form.sampler} onChange={(event) => set('sampler')(event.target.value)}>
                  <option value="">{t('images.advanced.samplerDefault')}</option>
                  {samplers.map((sampler) => (
                    <option key={sampler} value={sampler}>
                      {sampler}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <Field.ErrorText>{errors.sampler}</Field.ErrorText>
            </Field.Root>
          )}
        </SimpleGrid>
      </Stack>
    </Box>
  );
}
