use super::a;

pub struct C;

pub fn wrap() -> a::A {
    a::A(crate::b::B)
}
