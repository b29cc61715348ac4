pub struct Vote;
