import { graphql } from '../../gql';

/** How the signed-in member sees public content above SAFE, and how their age is known. */
export const ViewerContentSettingsDocument = graphql(`
  query ViewerContentSettings {
    me {
      id
      ratingPreferences {
        suggestive
        explicit
      }
      ageAssurance {
        level
        method
        checkedAt
      }
    }
  }
`);

export const UpdateRatingPreferencesDocument = graphql(`
  mutation UpdateRatingPreferences($input: RatingPreferencesInput!) {
    updateRatingPreferences(input: $input) {
      id
      ratingPreferences {
        suggestive
        explicit
      }
    }
  }
`);

export const ReportContentDocument = graphql(`
  mutation ReportContent($input: ReportInput!) {
    reportContent(input: $input) {
      caseId
    }
  }
`);

export const MyNoticesDocument = graphql(`
  query MyNotices {
    myNotices {
      id
      kind
      label
      reason
      rating
      targetId
      targetKind
      createdAt
    }
  }
`);

export const DismissNoticeDocument = graphql(`
  mutation DismissNotice($id: ID!) {
    dismissNotice(id: $id)
  }
`);

export const ModerationTargetFieldsFragment = graphql(`
  fragment ModerationTargetFields on ModerationTarget {
    id
    kind
    ownerId
    title
    text
    context
    imageUrl
    isPublic
    rating
    state
    createdAt
  }
`);

export const ModerationCaseFieldsFragment = graphql(`
  fragment ModerationCaseFields on ModerationCase {
    id
    kind
    reason
    details
    status
    targetKind
    targetId
    targetOwnerId
    ownerSuspended
    reporter {
      id
      email
      name
    }
    reference
    requester {
      name
      email
      role
      signature
    }
    createdAt
    deadlineAt
    resolveBy
    snapshot {
      ...ModerationTargetFields
    }
    current {
      ...ModerationTargetFields
    }
  }
`);

/** The open queue, soonest deadline first; pages forwards with `after: endCursor`. */
export const ModerationQueueDocument = graphql(`
  query ModerationQueue($first: Int!, $after: String) {
    moderationQueue(status: OPEN, first: $first, after: $after) {
      openCount
      hasNextPage
      endCursor
      nodes {
        ...ModerationCaseFields
      }
    }
  }
`);

export const ModerateDocument = graphql(`
  mutation Moderate($input: ModerationActionInput!) {
    moderate(input: $input) {
      id
      action
      targetKind
      targetId
      caseId
      reason
      detail
      actorLabel
      occurredAt
    }
  }
`);

/** The audit log, newest first; pages forwards with `after: endCursor`. */
export const ModerationAuditLogDocument = graphql(`
  query ModerationAuditLog($first: Int!, $after: String) {
    moderationAuditLog(first: $first, after: $after) {
      hasNextPage
      endCursor
      nodes {
        id
        occurredAt
        actorId
        actorLabel
        action
        targetKind
        targetId
        caseId
        reason
        detail
      }
    }
  }
`);
