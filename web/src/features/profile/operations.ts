import { graphql } from '../../gql';

export const AchievementFieldsFragment = graphql(`
  fragment AchievementFields on Achievement {
    key
    threshold
    progress
    earned
    earnedAt
  }
`);

export const MyAchievementsDocument = graphql(`
  query MyAchievements {
    myAchievements {
      ...AchievementFields
    }
  }
`);

/** Everything the Profile screen shows besides the member: totals, achievements, this month's use and the latest items. */
export const ProfileDocument = graphql(`
  query Profile {
    dashboardStats {
      imagesGenerated
      chatMessages
      charactersCreated
      storiesStarted
      totalLikes
      publicImages
    }
    myQuotas {
      kind
      used
      limit
    }
    # order: NEWEST gives these five their own cache entry, apart from the gallery's paged list.
    myImages(first: 5, order: NEWEST) {
      nodes {
        ...ImageFields
      }
    }
    conversations(first: 5) {
      nodes {
        id
        title
        characterName
        updatedAt
      }
    }
  }
`);

export const AchievementEarnedDocument = graphql(`
  subscription AchievementEarned {
    achievementEarned {
      ...AchievementFields
    }
  }
`);

export const UpdateProfileDocument = graphql(`
  mutation UpdateProfile($input: UpdateProfileInput!) {
    updateProfile(input: $input) {
      ...CurrentUser
    }
  }
`);
