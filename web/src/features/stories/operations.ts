import { graphql } from '../../gql';

export const StoryFieldsFragment = graphql(`
  fragment StoryFields on Story {
    id
    title
    premise
    genre
    tone
    language
    characterIds
    characterNames
    currentPassageId
    passageCount
    createdAt
    updatedAt
    lastPlayedAt
  }
`);

export const StoryPassageFieldsFragment = graphql(`
  fragment StoryPassageFields on StoryPassage {
    id
    storyId
    parentId
    depth
    actionKind
    action
    content
    choices
    status
    model
    isDemo
    errorCode
    savePoint
    moderationState
    createdAt
    updatedAt
  }
`);

export const StoryMapNodeFieldsFragment = graphql(`
  fragment StoryMapNodeFields on StoryMapNode {
    id
    parentId
    depth
    actionKind
    action
    excerpt
    status
    savePoint
    createdAt
  }
`);

/** The list shows the member's 100 most recently played stories. */
export const StoriesDocument = graphql(`
  query Stories {
    stories(first: 100) {
      nodes {
        ...StoryFields
      }
      totalCount
    }
  }
`);

export const StoryByIdDocument = graphql(`
  query StoryById($id: ID!) {
    story(id: $id) {
      ...StoryFields
    }
  }
`);

export const StoryPathDocument = graphql(`
  query StoryPath($storyId: ID!, $passageId: ID) {
    storyPath(storyId: $storyId, passageId: $passageId) {
      ...StoryPassageFields
    }
  }
`);

export const StoryMapDocument = graphql(`
  query StoryMap($storyId: ID!) {
    storyMap(storyId: $storyId) {
      ...StoryMapNodeFields
    }
  }
`);

export const StoryExportDocument = graphql(`
  query StoryExport($storyId: ID!, $passageId: ID) {
    storyExport(storyId: $storyId, passageId: $passageId) {
      fileName
      markdown
    }
  }
`);

export const StoryUpdatesDocument = graphql(`
  subscription StoryUpdates($storyId: ID!) {
    storyUpdates(storyId: $storyId) {
      type
      storyId
      typing
      passageId
      offset
      text
      passage {
        ...StoryPassageFields
      }
      story {
        ...StoryFields
      }
    }
  }
`);

export const StartStoryDocument = graphql(`
  mutation StartStory($input: StartStoryInput!) {
    startStory(input: $input) {
      story {
        ...StoryFields
      }
      passage {
        ...StoryPassageFields
      }
    }
  }
`);

export const ChooseStoryOptionDocument = graphql(`
  mutation ChooseStoryOption($storyId: ID!, $passageId: ID!, $choiceIndex: Int!) {
    chooseStoryOption(storyId: $storyId, passageId: $passageId, choiceIndex: $choiceIndex) {
      ...StoryPassageFields
    }
  }
`);

export const TakeStoryActionDocument = graphql(`
  mutation TakeStoryAction($storyId: ID!, $passageId: ID!, $action: String!) {
    takeStoryAction(storyId: $storyId, passageId: $passageId, action: $action) {
      ...StoryPassageFields
    }
  }
`);

export const RetellPassageDocument = graphql(`
  mutation RetellPassage($storyId: ID!, $passageId: ID!) {
    retellPassage(storyId: $storyId, passageId: $passageId) {
      ...StoryPassageFields
    }
  }
`);

export const GoToPassageDocument = graphql(`
  mutation GoToPassage($storyId: ID!, $passageId: ID!) {
    goToPassage(storyId: $storyId, passageId: $passageId) {
      ...StoryFields
    }
  }
`);

export const SetSavePointDocument = graphql(`
  mutation SetSavePoint($storyId: ID!, $passageId: ID!, $label: String!) {
    setSavePoint(storyId: $storyId, passageId: $passageId, label: $label) {
      ...StoryPassageFields
    }
  }
`);

export const RenameStoryDocument = graphql(`
  mutation RenameStory($id: ID!, $title: String!) {
    renameStory(id: $id, title: $title) {
      ...StoryFields
    }
  }
`);

export const DeleteStoryDocument = graphql(`
  mutation DeleteStory($id: ID!) {
    deleteStory(id: $id)
  }
`);

export const StopStoryDocument = graphql(`
  mutation StopStory($storyId: ID!) {
    stopStory(storyId: $storyId)
  }
`);
