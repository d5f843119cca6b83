import { Environment, flag } from '@app/kit';
import { ContentPolicy, type Refusal } from './content-policy';
import { createModelStage, readModelStageSettings } from './model-stage';

/** The content policy's own settings (the moderation model's are in modelStageEnvironment). */
export const policyEnvironment = new Environment('chat, media', {
  POLICY_RETAIN_REFUSED_TEXT: flag(false, {
    meaning:
      'Keep the refused text in `evt.*.content.refused` events (at most 4,000 characters) for review. Off: events carry the path, category, member and matched terms only.',
  }),
});

/** The policy a service applies: the lexical stage, plus the moderation model when MODERATION_URL is set. */
export function openContentPolicy(env: NodeJS.ProcessEnv, onRefusal: (refusal: Refusal) => Promise<unknown>): ContentPolicy {
  const settings = readModelStageSettings(env);
  return new ContentPolicy({
    model: settings ? createModelStage(settings) : null,
    retainText: policyEnvironment.parse(env).POLICY_RETAIN_REFUSED_TEXT,
    onRefusal: async (refusal) => void (await onRefusal(refusal)),
  });
}
