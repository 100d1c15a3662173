-- Grants a node lease with a new epoch, unless the node id holds a live lease.
-- KEYS[1] the node's lease key, KEYS[2] the token sequence. ARGV[1] the lease ttl in ms.
-- Returns the epoch, or 0 when the id holds a live lease.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], string.format('%d', epoch), 'PX', ARGV[1])
return epoch
