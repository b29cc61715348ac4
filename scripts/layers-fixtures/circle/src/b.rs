pub struct B;

pub fn make() -> crate::c::C {
    crate::c::C
}
