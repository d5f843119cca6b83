import { Outbox, type ServiceDefinition } from '@app/kit';
import { MediaInitial1763800000001 } from './migrations/1763800000001-media-initial';

/** Images, generation jobs, likes and stored objects; its features arrive with the media issue. */
export const mediaService: ServiceDefinition = {
  name: 'media',
  schema: 'media',
  entities: [],
  migrations: [MediaInitial1763800000001],
  async start({ bus, db }) {
    return [new Outbox(db, bus, 'media').start()];
  },
};
