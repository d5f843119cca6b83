import type { ApolloClient } from '@apollo/client';
import { toSamplerForm, type SamplerForm } from '../chat-settings';
import { CharacterSamplingDocument } from '../chat-settings/operations';

/**
 * A character's reply settings as a form, read on their own when its editor opens: the character lists leave them
 * out (100 characters with their settings would pass the gateway's query cost limit). Null when they could not be read.
 */
export async function loadCharacterSamplingForm(client: ApolloClient, characterId: string): Promise<SamplerForm | null> {
  try {
    const { data } = await client.query({ query: CharacterSamplingDocument, variables: { id: characterId }, fetchPolicy: 'network-only' });
    return data?.character ? toSamplerForm(data.character.sampling) : null;
  } catch {
    return null;
  }
}
