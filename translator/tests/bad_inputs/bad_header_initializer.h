int shared_counter = 0;
int *counter_at = &shared_counter;
