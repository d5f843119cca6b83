import type { ServiceInstanceStatus } from '@app/kit';
import { EventFilter, type EventEnvelope, validationError } from '@app/schema';
import { GraphQLJSONObject } from 'graphql-scalars';
import {
  Arg,
  Ctx,
  Field,
  GraphQLISODateTime,
  ID,
  InputType,
  Int,
  ObjectType,
  Query,
  Resolver,
  Root,
  Subscription,
  registerEnumType,
} from 'type-graphql';
import { role } from '../operations/caller';
import { type GatewayContext, callerOf } from './context';

export enum CircuitStateType {
  CLOSED = 'closed',
  HALF_OPEN = 'half-open',
  OPEN = 'open',
}
registerEnumType(CircuitStateType, {
  name: 'CircuitState',
  description: "A provider's circuit: CLOSED calls it, OPEN refuses calls after repeated outages, HALF_OPEN lets one trial call through.",
});

@ObjectType('CircuitStatus')
export class CircuitStatusType {
  @Field(() => String, { description: 'The upstream it guards, e.g. chat-provider.' }) name!: string;
  @Field(() => CircuitStateType) state!: CircuitStateType;
}

@ObjectType('QueueDepth')
export class QueueDepthType {
  @Field(() => String, { description: 'A durable event consumer (consumer.<name>) or a job queue.' }) name!: string;
  @Field(() => Int, { description: 'Items waiting: events not yet processed, or jobs not yet finished.' }) depth!: number;
}

@ObjectType('ServiceInstance', {
  description: 'A running service instance, as it answers the NATS services protocol ($SRV.INFO); embedded, the services of this process.',
})
export class ServiceInstanceType {
  @Field(() => String, { description: 'identity, chat or media.' }) name!: string;
  @Field(() => ID) id!: string;
  @Field(() => String) version!: string;
  @Field(() => GraphQLISODateTime) startedAt!: Date;
  @Field(() => Int, { description: 'RPC endpoints it serves.' }) endpoints!: number;
  @Field(() => [CircuitStatusType]) circuits!: CircuitStatusType[];
  @Field(() => [QueueDepthType]) queues!: QueueDepthType[];
}

@ObjectType('OperatorEvent', { description: 'One event of the stream, as docs/events.md describes its type.' })
export class OperatorEventType {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'The subject, e.g. evt.chat.message.sent.' }) type!: string;
  @Field(() => Int) version!: number;
  @Field(() => GraphQLISODateTime) occurredAt!: Date;
  @Field(() => ID, { nullable: true, description: 'The member or moderator who caused it; null for the system.' }) actorId!: string | null;
  @Field(() => GraphQLJSONObject, { description: "The event's fields." }) data!: Record<string, unknown>;
}

@InputType('OperatorEventFilter')
export class OperatorEventFilterType {
  @Field(() => String, {
    nullable: true,
    description: 'A NATS subject pattern, e.g. evt.chat.> or evt.media.image.*; default every event.',
  })
  subject?: string | null;
  @Field(() => ID, { nullable: true, description: 'Only events the member acted in or that name them.' }) memberId?: string | null;
}

const toInstanceType = (instance: ServiceInstanceStatus): ServiceInstanceType => ({
  ...instance,
  startedAt: new Date(instance.startedAt),
  circuits: instance.circuits.map((circuit) => ({ name: circuit.name, state: circuit.state as CircuitStateType })),
});

/** Admins' view of the running platform: instances, circuits and queues, and the event stream live. */
@Resolver()
export class OperatorResolver {
  @Query(() => [ServiceInstanceType], { description: 'Admins only: the service instances up now, each with its circuits and queues.' })
  async operatorServices(@Ctx() context: GatewayContext): Promise<ServiceInstanceType[]> {
    role(callerOf(context), 'admin');
    return (await context.operator.services()).map(toInstanceType);
  }

  @Subscription(() => OperatorEventType, {
    description: 'Admins only: events as they are appended to the stream, from now on, filtered by subject and member.',
    subscribe: async ({ args, context }) => {
      const ctx = context as GatewayContext;
      role(callerOf(ctx), 'admin');
      const filter = EventFilter.safeParse(stripNulls((args as { filter?: OperatorEventFilterType | null }).filter ?? {}));
      if (!filter.success) throw validationError(filter.error);
      return ctx.operator.watchEvents(filter.data);
    },
  })
  operatorEvents(
    @Arg('filter', () => OperatorEventFilterType, { nullable: true }) _filter: OperatorEventFilterType | null,
    @Root() event: EventEnvelope,
  ): OperatorEventType {
    const data = typeof event.data === 'object' && event.data !== null && !Array.isArray(event.data) ? event.data : { value: event.data };
    return { ...event, occurredAt: new Date(event.occurredAt), data: data as Record<string, unknown> };
  }
}

const stripNulls = (input: object) =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));
