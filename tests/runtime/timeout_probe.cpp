// Waits for a notification nobody sends, with the default timeout action (abort the job): the test
// checks that the diagnostic names the rank, the notification and the segment, and that the job
// ends instead of hanging.
#include "ghostwire/segment.hpp"

int main() {
  ghostwire::World world;
  ghostwire::Segment segment(world, 64, 8);
  ghostwire::notify_wait(segment, 6);
  return 0;  // not reached
}
