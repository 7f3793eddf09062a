#include "properties/value_class_gen.h"

#include <algorithm>

#include "properties/weighted.h"

namespace bc::gen {

void draw_value_class(Case& c, uint64_t plain_weight) {
  if (!c.values || !c.values->data.empty()) return;
  const std::vector<DType> dtypes = c.dtypes.empty() ? std::vector<DType>{DType::float32} : c.dtypes;  // the default
  Choices<ValueClass> choices = {{plain_weight, ValueClass::plain}};
  for (ValueClass cls : all_value_classes())
    if (cls != ValueClass::plain &&
        std::any_of(dtypes.begin(), dtypes.end(), [cls](DType t) { return value_class_applies(cls, t); }))
      choices.push_back({1, cls});
  if (choices.size() == 1) return;  // bool operands only: nothing to draw
  const ValueClass cls = *weighted<ValueClass>(std::move(choices));
  c.values->value_class = cls == ValueClass::plain ? std::nullopt : std::optional<ValueClass>(cls);
}

}  // namespace bc::gen
