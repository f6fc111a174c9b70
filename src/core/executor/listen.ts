/** The action that ends a turn: the assistant waits for the user. */
export const ACTION_LISTEN_NAME = 'action_listen';
