int shared_counter = 0;
